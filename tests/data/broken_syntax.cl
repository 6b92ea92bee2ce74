// A kernel with a missing semicolon on line 5.
kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int tnum = get_local_id(0);
    prods[tnum] = dA[tnum] * dB[tnum]
    dC[0] = prods[0];
}
