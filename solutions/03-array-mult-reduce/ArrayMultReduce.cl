// Lab 03 ArrayMultReduce: multiply two arrays into local memory and reduce each work-group's
// products with the offset/mask bitmask tree; work-item 0 stores the group's sum in dC.

// slide: amr-kernel
// student: todo-1
// student-end
kernel void
ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid      = get_global_id(0);   // element of dA and dB handled here: 0 .. N-1
    int numItems = get_local_size(0);  // work-items in a work-group (a power of two)
    int tnum     = get_local_id(0);    // this work-item's number in its group: 0 .. numItems-1
    int wgNum    = get_group_id(0);    // this group's number: the slot of dC it fills

    // student: todo-2
    prods[tnum] = dA[gid] * dB[gid];
    // student-end
// slide-end

    // student: todo-3
    // Level by level: offset 1, 2, 4, ...; work-items whose low bits (mask) are all zero add in
    // the value `offset` places to their right. After log2(numItems) levels prods[0] holds the sum.
    // student-end
    // slide: bitmask-tree
    for (int offset = 1; offset < numItems; offset *= 2)
    {
        int mask = 2 * offset - 1;
        // student: todo-4
        barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods
        if ((tnum & mask) == 0)
            prods[tnum] += prods[tnum + offset];
        // student-end
    }

    barrier(CLK_LOCAL_MEM_FENCE);       // the last level's add is done before prods[0] is read
    if (tnum == 0)
        dC[wgNum] = prods[0];
    // slide-end
}
