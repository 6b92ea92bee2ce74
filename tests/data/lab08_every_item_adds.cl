// Lab 08 mistake: after the tree, every work-item of a group adds the group's sum to the total,
// not only work-item 0: the total comes out L times too large.
kernel void
sum_int_atomic(global const int *in, global int *total, local int *scratch, const uint n)
{
    uint tid = get_local_id(0), gid = get_global_id(0), L = get_local_size(0);
    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    atomic_add(total, scratch[0]);
}
