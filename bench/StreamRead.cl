// The memory-bandwidth roof: read two arrays as float4, as the cascade dot product does, with the
// least arithmetic; one float per work-item keeps the loads alive. Grid-stride on a GPU, one
// contiguous run per work-item on a CPU (-D CONTIGUOUS), like the cascade.
kernel void StreamRead(global const float4 *a, global const float4 *b, global float *out, const uint n4)
{
    float4 acc = (float4)(0.0f);
#ifdef CONTIGUOUS
    uint per_item = (n4 + get_global_size(0) - 1) / get_global_size(0);
    uint begin = min((uint)get_global_id(0) * per_item, n4), end = min(begin + per_item, n4);
    for (uint i = begin; i < end; ++i)
        acc += a[i] + b[i];
#else
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        acc += a[i] + b[i];
#endif
    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}
