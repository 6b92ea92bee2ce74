// The memory-bandwidth roof: read two arrays as float4 in a grid-stride loop, as the cascade dot
// product does, but with the least arithmetic; one float per work-item keeps the loads alive.
kernel void StreamRead(global const float4 *a, global const float4 *b, global float *out, const uint n4)
{
    float4 acc = (float4)(0.0f);
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        acc += a[i] + b[i];
    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}
