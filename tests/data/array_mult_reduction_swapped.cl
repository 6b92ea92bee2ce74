// Another name, and the local scratch and the sums in each other's place.
kernel void ArrayMultReduction(global const float *dA, global const float *dB, global float *dC, local float *prods)
{
    int gid = get_global_id(0), tnum = get_local_id(0), L = get_local_size(0);
    prods[tnum] = dA[gid] * dB[gid];
    for (int offset = 1; offset < L; offset *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if ((tnum & (2 * offset - 1)) == 0)
            prods[tnum] += prods[tnum + offset];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tnum == 0)
        dC[get_group_id(0)] = prods[0];
}
