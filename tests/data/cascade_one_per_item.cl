// Lab 06's signature with lab 03's structure: one product per work-item, a tree per work-group
// of L, one partial per L elements (the host launches N / L work-groups).
kernel void DotCascade(global const float *dA, global const float *dB, local float *scratch, global float *partials, const uint n)
{
    uint gid = get_global_id(0), tid = get_local_id(0), L = get_local_size(0);
    scratch[tid] = gid < n ? dA[gid] * dB[gid] : 0.0f;
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < s)
            scratch[tid] += scratch[tid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

kernel void SumPartials(global const float *partials, global float *result, local float *scratch, const uint count)
{
    if (get_local_id(0) == 0)
    {
        float sum = 0.0f;
        for (uint i = 0; i < count; ++i)
            sum += partials[i];
        result[0] = sum;
    }
}
