// One parameter short of the lab's signature.
kernel void ArrayMultReduce(global const float *dA, global const float *dB, global float *dC)
{
    dC[0] = dA[0] * dB[0];
}
