// Lab 01's kernel kept above lab 03's, whose sum is never stored.
kernel void ArrayMult(global const float *dA, global const float *dB, global float *dC)
{
    int gid = get_global_id(0);
    dC[gid] = dA[gid] * dB[gid];
}

kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid = get_global_id(0), tnum = get_local_id(0), L = get_local_size(0);
    prods[tnum] = dA[gid] * dB[gid];
    for (int offset = 1; offset < L; offset *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if ((tnum & (2 * offset - 1)) == 0)
            prods[tnum] += prods[tnum + offset];
    }
}
