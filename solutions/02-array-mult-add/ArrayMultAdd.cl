// Lab 02 ArrayMultAdd: as lab 01 with one more input, dD[gid] = dA[gid] * dB[gid] + dC[gid]
// (the compiler may fuse the multiply and the add into one fma instruction).

// student: todo-1
// student-end
kernel void
ArrayMultAdd(global const float *dA, global const float *dB, global const float *dC, global float *dD, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    if (gid < n)                  // the last work-group may reach past the end of the arrays
        dD[gid] = dA[gid] * dB[gid] + dC[gid];
    // student-end
}
