// Lab 04 TreeReductions: the tree-reduction ladder for an integer sum, five rungs from the naive
// interleaved tree to the fully unrolled one. Each kernel sums the ints of in[0 .. n-1] that
// belong to its work-group into out[group]; elements at or past n count as 0 (the sum's identity),
// so n need not be a multiple of the work-group size. The host runs a kernel again on out until
// one value remains. The local size L is a power of two (1 .. 4096); scratch holds L ints.

// student: todo-1
// Fill in the TODOs, one rung at a time (the lab's README.md explains each rung). Every work-item
// of a group must reach every barrier: never put a barrier inside an if that only some take.
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end

// The host always builds with -D WG_SIZE=<local size> (reduce5 needs it at compile time); the
// default only lets the file build on its own, e.g. in an editor or a syntax check.
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#if WG_SIZE < 1 || WG_SIZE > 4096 || (WG_SIZE & (WG_SIZE - 1)) != 0
#error "WG_SIZE must be a power of two from 1 to 4096"
#endif

// Rung 1, the baseline: interleaved addressing with %; active work-items are scattered (divergent).
kernel void
reduce1_interleaved_mod(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);     // this work-item's number in its group: 0 .. L-1
    uint gid = get_global_id(0);    // the element of in loaded here
    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)

    scratch[tid] = (gid < n) ? in[gid] : 0;     // past the end: 0, the identity of +
    barrier(CLK_LOCAL_MEM_FENCE);               // every element is in scratch

    // student: todo-2
    // TODO: reduce scratch[0 .. L-1] into scratch[0] by interleaved addressing, one level per
    //   pass: at stride s = 1, 2, 4, ... the work-items whose tid is a multiple of 2*s take in the
    //   value s places to their right, choosing them with %.
    //   After the last level scratch[0] holds the work-group's sum. Invariant: a level reads only
    //   values the previous level finished writing, and every work-item reaches each barrier.
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 2: no %, and a strided index keeps the active work-items contiguous (less divergence).
kernel void
reduce2_interleaved_strided(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-3
    // TODO: the same tree and the same result as rung 1, without %: at each level, work-item tid
    //   handles the tid-th pair of that level (README: rung 2), so the busy work-items are the
    //   first ones of the group. Same invariant: every work-item reaches each barrier.
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 3: sequential addressing: active work-items read contiguous scratch (no bank conflicts).
kernel void
reduce3_sequential(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-4
    // TODO: the tree the other way round (sequential addressing): the stride halves each level,
    //   from L/2 down to 1, and the first s work-items fold the upper half of scratch[0 .. 2s-1]
    //   onto the lower half. After the last level scratch[0] holds the work-group's sum; every
    //   work-item reaches each barrier.
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 4: the first add happens during the load: half the groups, no work-item idle at level one.
kernel void
reduce4_first_add(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint L   = get_local_size(0);
    uint gid = get_group_id(0) * (2 * L) + tid;   // the first of this work-item's two elements

    // student: todo-5
    // TODO 1: the first add. Each group covers 2*L elements (the host launches half as many
    //   groups): scratch[tid] gets the sum of this work-item's two elements, gid and gid + L, an
    //   element at or past n counting as 0. The placeholder below loads only the first.
    scratch[tid] = (gid < n) ? in[gid] : 0;
    // student-end
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-6
    // TODO 2: the tree of rung 3, so that scratch[0] ends up holding the group's sum.
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}

// Rung 5: the tree fully unrolled for a compile-time WG_SIZE: no loop counter, no dead levels.
kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
reduce5_unrolled(global const int *in, global int *out, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint L   = WG_SIZE;                           // == get_local_size(0), known to the compiler
    uint gid = get_group_id(0) * (2 * L) + tid;

    // student: todo-7
    // TODO 1: the first add, as in rung 4. The placeholder below loads only the first element.
    scratch[tid] = (gid < n) ? in[gid] : 0;
    // student-end
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-8
    // TODO 2: the tree of rung 4 with no loop: one level per line, largest first, each guarded by
    //   an if on WG_SIZE so that it exists only when the group is that large. WG_SIZE is a
    //   constant, so the compiler decides each such if and every work-item reaches every barrier
    //   that remains. Keep a barrier on every level, the last ones too: OpenCL promises no
    //   lock-step execution within a warp (README: "Why rung 5 keeps every barrier").
    // student-end

    if (tid == 0)
        out[get_group_id(0)] = scratch[0];
}
