// Lab 02 ArrayMultAdd: as lab 01 with one more input, dD[gid] = dA[gid] * dB[gid] + dC[gid]
// (the compiler may fuse the multiply and the add into one fma instruction).

// student: todo-1
// Fill in the TODO, then run:   build/bin/02-array-mult-add --check
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end
kernel void
ArrayMultAdd(global const float *dA, global const float *dB, global const float *dC, global float *dD, const int n)
{
    int gid = get_global_id(0);   // this work-item's element

    // student: todo-2
    // TODO: dD's element gid gets A * B + C of this work-item's elements, as in the header. The
    //       host rounds the global size up to a multiple of the local size, so a work-item whose
    //       gid is at or past n must leave every array alone.
    // student-end
}
