// prods is global here, not local: the host's size-only local argument cannot fill it.
kernel void ArrayMultReduce(global const float *dA, global const float *dB, global float *prods, global float *dC)
{
    dC[0] = dA[0] * dB[0] + prods[0];
}
