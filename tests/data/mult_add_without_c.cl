// Lab 02 that forgets the addend.
kernel void ArrayMultAdd(global const float *dA, global const float *dB, global const float *dC, global float *dD, const int n)
{
    int gid = get_global_id(0);
    if (gid < n)
        dD[gid] = dA[gid] * dB[gid];
}
