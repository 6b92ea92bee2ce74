// Lab @NN@ @KERNEL@: one work-item per element computes dB[gid] = dA[gid] * dA[gid]; the guard
// lets the host round the global size up to a multiple of the work-group size.

// student: todo-1
// student-end
kernel void
@KERNEL@(global const float *dA, global float *dB, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    if (gid < n)                  // the last work-group may reach past the end of the arrays
        dB[gid] = dA[gid] * dA[gid];
    // student-end
}
