// Lab 06 CascadeDot: the dot product of dA and dB (n floats each) as a cascade. A fixed number of
// work-groups G (a multiple of the compute units; G*L is usually far below n) sweeps the arrays,
// in a grid-stride loop on a GPU or in one contiguous run per work-item on a CPU (-D CONTIGUOUS,
// chosen by the host from the device type): each work-item keeps running sums in registers, and
// only at the end does each work-group run one local tree and store one partial sum. The G
// partials are then added on the host, or on the device by SumPartials. The local size L is a
// power of two (1 .. 1024); scratch holds L floats. It must be correct for any n >= 1.

// student: todo-1
// Fill in the TODOs (0 from lab 04, 1a and 1b, 2, 3), then run:   build/bin/06-cascade-reduction --check
// (the lab's README.md explains the cascade step by step).
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end

// The tree both kernels end with, your own from lab 04: scratch[0 .. L-1] folded into scratch[0] by
// sequential addressing (stride s = L/2, L/4, ..., 1; the first s work-items fold the upper half of
// scratch[0 .. 2s-1] onto the lower half). Every work-item of the group calls it, its value in
// scratch[tid]; L is a power of two.
void tree_sum(local float *scratch, const uint tid, const uint L)
{
    // student: lab04-tree
    // TODO 0, from lab 04: paste the loop you wrote there for rung 3 (reduce3_sequential's TODO in
    //   labs/04-tree-reductions/TreeReductions.cl) as it is: it uses the same scratch, tid and L,
    //   here over floats. Afterwards scratch[0] holds the sum of scratch[0 .. L-1], and every
    //   work-item has reached each of the loop's barriers.
    // student-end
}

// Over lab 03: many float4 products per work-item, so the tree and a partial cost once per G*L*k elements, not per L.
kernel void
DotCascade(global const float *dA, global const float *dB, local float *scratch, global float *partials,
           const uint n)
{
    uint tid = get_local_id(0);     // this work-item's number in its group: 0 .. L-1
    uint gid = get_global_id(0);    // this work-item's number in the whole grid: 0 .. G*L-1
    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)

    // Chunk i holds elements 4i .. 4i+3; acc is this work-item's running sum, four lanes at a time.
    // The body of each loop below is only loads and multiply-adds into private sums: no branch.
    float4 acc = (float4)(0.0f);
#ifdef CONTIGUOUS
    // student: todo-2
    // TODO 1a (CPU devices: the host passes -D CONTIGUOUS): afterwards acc holds this work-item's
    //   share of the products of the n / 4 whole chunks, read as one contiguous run of chunks.
    //   - the runs split the chunks among the get_global_size(0) work-items: every chunk in
    //     exactly one run, work-item gid's run the gid-th (the last runs may be short or empty)
    //   - speed: keep at least four independent running sums, so that the core has several
    //     cache lines in flight (README: "More loads in flight"). With a single sum every add
    //     waits for the one before; on one core, as graded, that runs at about 0.8 of the
    //     solution's speed, right at the edge of full points.
    // student-end
#else
    // student: todo-3
    // TODO 1b (GPUs): the grid-stride loop: afterwards acc holds the products of the chunks
    //   gid, gid + G*L, gid + 2*G*L, ... below n / 4 (G*L is get_global_size(0)), so that
    //   neighbouring work-items load neighbouring chunks and the loads coalesce. Keep the loop's
    //   body free of ifs and barriers.
    // student-end
#endif
    float sum = (acc.x + acc.y) + (acc.z + acc.w);

    // student: todo-4
    // TODO 2: the scalar tail: the last n % 4 elements (0 .. 3 of them) that no chunk holds.
    //   Afterwards each of them has been added into the sum of exactly one work-item, even when
    //   the grid has fewer work-items than the tail has elements. Count the tail from 0 rather
    //   than by the element's own index: n may be close to 2^32.
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);               // every work-item's sum is in scratch

    tree_sum(scratch, tid, L);           // your lab 04 tree (TODO 0)

    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

// Over adding the partials on the host: the final combine stays on the device (ONE work-group of L).
kernel void
SumPartials(global const float *partials, global float *result, local float *scratch, const uint count)
{
    uint tid = get_local_id(0);     // this work-item's number in the (only) group: 0 .. L-1
    uint L   = get_local_size(0);   // work-items in the group (a power of two)

    float sum = 0.0f;
    // student: todo-5
    // TODO 3: afterwards sum holds the partials this work-item owns: every partials[t] with
    //   t < count and t % L == tid. count is G, which may be larger than L or smaller.
    // student-end

    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    tree_sum(scratch, tid, L);

    if (tid == 0)
        result[0] = scratch[0];
}
