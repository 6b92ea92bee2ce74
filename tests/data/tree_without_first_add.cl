// Lab 04 rung 4 that loads one element per work-item and forgets the second (the first add).
kernel void reduce1_interleaved_mod(global const int *in, global int *out, local int *scratch, const uint n) { }
kernel void reduce2_interleaved_strided(global const int *in, global int *out, local int *scratch, const uint n) { }
kernel void reduce3_sequential(global const int *in, global int *out, local int *scratch, const uint n) { }
kernel void reduce4_first_add(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0), L = get_local_size(0);
    uint i = get_group_id(0) * 2 * L + tid;
    scratch[tid] = i < n ? in[i] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}
kernel void reduce5_unrolled(global const int *in, global int *out, local int *scratch, const uint n) { }
