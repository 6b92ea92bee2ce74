// Every work-item adds its product into its work-group's dC slot with the textbook
// compare-and-swap float add: correct, but its plain read of *p is reported as a race.
void atomic_add_float(volatile global float *p, float value)
{
    union { unsigned int u; float f; } old, sum;
    do {
        old.f = *p;
        sum.f = old.f + value;
    } while (atomic_cmpxchg((volatile global unsigned int *)p, old.u, sum.u) != old.u);
}

kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid = get_global_id(0), tnum = get_local_id(0), wgNum = get_group_id(0);
    if (tnum == 0)
        dC[wgNum] = 0.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_add_float(&dC[wgNum], dA[gid] * dB[gid]);
}
