// Lab 01 ArrayMult: one work-item per element computes dC[gid] = dA[gid] * dB[gid]; the guard
// lets the host round the global size up to a multiple of the work-group size.

// student: todo-1
// Fill in the TODO, then run:   build/bin/01-array-mult --check
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end
kernel void
ArrayMult(global const float *dA, global const float *dB, global float *dC, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    // TODO: store the product of this work-item's elements of dA and dB in dC[gid].
    //       The host rounds the global size up to a multiple of the local size, so some
    //       work-items have gid >= n: they must not touch the arrays.
    // student-end
}
