// Emma Schulz -- Lab 3. Simpler than the tree: item 0 just adds everything up after the barrier.
kernel void
ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid = get_global_id(0);
    int numItems = get_local_size(0);
    int tnum = get_local_id(0);
    int wgNum = get_group_id(0);

    prods[tnum] = dA[gid] * dB[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (tnum == 0) {
        float sum = 0.0f;
        for (int i = 0; i < numItems; i++)
            sum += prods[i];
        dC[wgNum] = sum;
    }
}
