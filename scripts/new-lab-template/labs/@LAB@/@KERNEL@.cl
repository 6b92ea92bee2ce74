// Lab @NN@ @KERNEL@: one work-item per element computes dB[gid] = dA[gid] * dA[gid]; the guard
// lets the host round the global size up to a multiple of the work-group size.

// student: todo-1
// Fill in the TODO, then run:   build/bin/@LAB@ --check
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end
kernel void
@KERNEL@(global const float *dA, global float *dB, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    // TODO: store the square of this work-item's element of dA in dB[gid].
    //       Work-items with gid >= n must not touch the arrays.
    // student-end
}
