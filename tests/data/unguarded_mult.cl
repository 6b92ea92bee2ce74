// Lab 01 without the guard: the rounded-up last work-group writes past dC[n-1].
kernel void ArrayMult(global const float *dA, global const float *dB, global float *dC, const int n)
{
    int gid = get_global_id(0);
    dC[gid] = dA[gid] * dB[gid];
}
