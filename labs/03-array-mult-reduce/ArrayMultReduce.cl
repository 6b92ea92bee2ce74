// Lab 03 ArrayMultReduce: multiply two arrays into local memory and reduce each work-group's
// products with the offset/mask bitmask tree; work-item 0 stores the group's sum in dC.

// student: todo-1
// Fill in the two TODOs, then run:   build/bin/03-array-mult-reduce --check
// (the lab's README.md explains the bitmask tree step by step).
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end
kernel void
ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid      = get_global_id(0);   // element of dA and dB handled here: 0 .. N-1
    int numItems = get_local_size(0);  // work-items in a work-group (a power of two)
    int tnum     = get_local_id(0);    // this work-item's number in its group: 0 .. numItems-1
    int wgNum    = get_group_id(0);    // this group's number: the slot of dC it fills

    // student: todo-2
    // TODO 1: afterwards prods[tnum] holds the product of this work-item's elements of dA and dB
    //   (the placeholder below stores 0).
    prods[tnum] = 0.0f;
    // student-end

    // student: todo-3
    // TODO 2 is the body of the loop below: one level of the bitmask tree per pass (README,
    //   section 2). After the loop, prods[0] holds the sum of the work-group's products.
    // student-end
    for (int offset = 1; offset < numItems; offset *= 2)
    {
        int mask = 2 * offset - 1;
        // student: todo-4
        // TODO 2: one level: each work-item whose low bits (selected by mask) are all clear takes
        //   in the value offset places to its right. Invariant: no work-item reads a value of the
        //   previous level before every work-item has written it, and every work-item must reach
        //   each barrier (README: "The barrier").
        // student-end
    }

    barrier(CLK_LOCAL_MEM_FENCE);       // the last level's add is done before prods[0] is read
    if (tnum == 0)
        dC[wgNum] = prods[0];
}
