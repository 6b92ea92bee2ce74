// lena - lab03: skip the tree, just accumulate into the output slot
kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid = get_global_id(0);
    int tnum = get_local_id(0);
    int wgNum = get_group_id(0);

    if (tnum == 0)
        dC[wgNum] = 0.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    dC[wgNum] += dA[gid] * dB[gid];
}
