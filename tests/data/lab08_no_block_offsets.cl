// Lab 08 mistake: each work-group's scan is right, but add_block_offsets does nothing, so
// every block after the first restarts from 0.
kernel void
scan_blocks(global const int *in, global int *out, global int *block_sums, local int *scratch,
            const uint n, const uint inclusive)
{
    uint tid = get_local_id(0), gid = get_global_id(0), L = get_local_size(0);
    int x = (gid < n) ? in[gid] : 0;
    scratch[tid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < L; d <<= 1)
    {
        uint i = 2 * d * (tid + 1) - 1;
        if (i < L)
            scratch[i] += scratch[i - d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0)
    {
        block_sums[get_group_id(0)] = scratch[L - 1];
        scratch[L - 1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = L / 2; d > 0; d >>= 1)
    {
        uint i = 2 * d * (tid + 1) - 1;
        if (i < L)
        {
            int left = scratch[i - d];
            scratch[i - d] = scratch[i];
            scratch[i] += left;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n)
        out[gid] = scratch[tid] + (inclusive ? x : 0);
}

kernel void
add_block_offsets(global int *out, global const int *offsets, const uint n)
{
    uint gid = get_global_id(0);
    if (gid < n)
        out[gid] += 0;
}
