// The kernel is spelled differently from the lab's.
kernel void arrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    dC[0] = dA[0] * dB[0] + prods[0];
}
