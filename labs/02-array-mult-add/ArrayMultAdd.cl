// Lab 02 ArrayMultAdd: as lab 01 with one more input, dD[gid] = dA[gid] * dB[gid] + dC[gid]
// (the compiler may fuse the multiply and the add into one fma instruction).
//
// Fill in the TODO, then run:   build/bin/02-array-mult-add --check
kernel void
ArrayMultAdd(global const float *dA, global const float *dB, global const float *dC, global float *dD, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // TODO: store dA[gid] * dB[gid] + dC[gid] in dD[gid], for gid < n only (the host rounds the
    //       global size up to a multiple of the local size).
}
