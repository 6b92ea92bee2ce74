// Lab 08 mistake: sum_kahan computes the compensation c but never subtracts it from the next
// element, so it returns exactly the naive sums. sum_naive and sum_tree are right.
kernel void
sum_tree(global const float *in, global float *partials, local float *scratch, const uint n)
{
    uint tid = get_local_id(0), gid = get_global_id(0), L = get_local_size(0);
    scratch[tid] = (gid < n) ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

kernel void
sum_naive(global const float *in, global float *sums, const uint n, const uint run)
{
    uint r = get_global_id(0), first = r * run;
    if (first >= n)
        return;
    uint end = min(first + run, n);
    float acc = 0.0f;
    for (uint i = first; i < end; ++i)
        acc += in[i];
    sums[r] = acc;
}

kernel void
sum_kahan(global const float *in, global float *sums, const uint n, const uint run)
{
    uint r = get_global_id(0), first = r * run;
    if (first >= n)
        return;
    uint end = min(first + run, n);
    float sum = 0.0f, c = 0.0f;
    for (uint i = first; i < end; ++i)
    {
        float y = in[i];            // the mistake: y = in[i] - c
        float t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    sums[r] = sum;
}
