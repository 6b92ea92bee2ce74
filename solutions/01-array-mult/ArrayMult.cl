// Lab 01 ArrayMult: one work-item per element computes dC[gid] = dA[gid] * dB[gid]; the guard
// lets the host round the global size up to a multiple of the work-group size.

// student: todo-1
// student-end
kernel void
ArrayMult(global const float *dA, global const float *dB, global float *dC, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    if (gid < n)                  // the last work-group may reach past the end of the arrays
        dC[gid] = dA[gid] * dB[gid];
    // student-end
}
