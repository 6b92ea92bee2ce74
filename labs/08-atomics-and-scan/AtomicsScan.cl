// Lab 08 AtomicsScan: what comes after a tree reduction, in three parts.
//   1. One launch, one total: each work-group reduces its L elements in local memory, then adds
//      its partial to a single global total, with atomic_add for ints and a compare-and-swap loop
//      for floats. sum_tree, the read-back baseline, is given: it runs your tree (tree_sum).
//   2. Accuracy: runs of floats summed naively (in order), pairwise (sum_tree, pass after pass)
//      and Kahan-compensated, each compared with the exact sum.
//   3. Scan: the work-efficient (Blelloch) prefix sum of one work-group's L ints, extended to any
//      N by scanning the block sums; then stream compaction, which needs a scan to know where
//      each kept element goes.
// The local size L is a power of two (2 .. 4096); every local scratch holds L values. Elements at
// or past n are never read: where a tree needs a value there it uses 0, the identity of +.
// Every work-item of a group must reach every barrier: never put a barrier inside an if that only
// some take, and never return before a barrier.

// student: todo-1
// Fill in the TODOs, part by part (the lab's README.md explains each step). Five of them take your
// own code from earlier labs: the tree of lab 04 (tree_sum, tree_sum_int) and the sweep of lab 06
// (dot_sweep). Paste those in first: sum_tree and the other kernels call them.
// Your code goes between the "// student: NAME" and "// student-end" lines; the code around them is given.
// student-end

// What compaction keeps; the host's reference uses the same rule.
#define KEEP(x) ((x) > 0)

// Your tree from lab 04 (rung 3, sequential addressing), for the kernels below: scratch[0 .. L-1]
// folded into scratch[0]. Every work-item of the group calls it, its value in scratch[tid]; L is
// a power of two. Once over floats (sum_tree, sum_float_atomic, dot_single_pass), once over ints
// (sum_int_atomic).
void tree_sum(local float *scratch, const uint tid, const uint L)
{
    // student: lab04-tree
    // TODO (from lab 04): paste the loop you wrote for rung 3 (reduce3_sequential's TODO in lab
    //   04's TreeReductions.cl) as it is: it uses the same scratch, tid and L, here over floats.
    //   Afterwards scratch[0] holds the sum of scratch[0 .. L-1], and every work-item has reached
    //   each of the loop's barriers.
    // student-end
}

void tree_sum_int(local int *scratch, const uint tid, const uint L)
{
    // student: lab04-tree-int
    // TODO (from lab 04): the same loop again, over ints: lab 04's own type.
    // student-end
}

// The baseline, lab 04's rung 3 in float with your tree_sum: each work-group's sum goes to partials[group].
kernel void
sum_tree(global const float *in, global float *partials, local float *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum(scratch, tid, L);
    if (tid == 0)
        partials[get_group_id(0)] = scratch[0];
}

// Part 1, ints: one atomic_add per work-group replaces the partials' read-back: one launch, one total.
kernel void
sum_int_atomic(global const int *in, global int *total, local int *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum_int(scratch, tid, L);
    // student: todo-2
    // TODO: *total grows by the group's sum, scratch[0], once per work-group (the host sets it to 0
    //   before the launch). Invariant: no group's update is lost, whatever order and timing the
    //   groups run in (README, Part 1: why a plain += is not enough).
    // student-end
}

// OpenCL 1.2 has no atomic add for floats: read the total, add, and swap the new bits in only if
// the total still holds the bits that were read; otherwise another work-group got there first,
// and the loop starts again from a fresh read. The plain read may see a stale value (Oclgrind
// calls it a race): the swap then fails and the loop retries, so no update is lost.
void atomic_add_float(volatile global float *total, const float value)
{
    union { uint u; float f; } seen, sum;
    // student: todo-3
    // TODO: make the two lines below the body of a loop that ends only when the swap succeeded:
    //   the compare-and-swap (atomic_cmpxchg on the total's bits, as a volatile global uint *)
    //   stores the new sum only if the total still holds the bits just read, and returns the
    //   bits it found. Anything else means another work-group changed the total in between:
    //   read again and retry. Keep the plain read line exactly as it is (the grader allows
    //   Oclgrind's report on that one line, see the README).
    seen.f = *total;
    sum.f = seen.f + value;
    // student-end
}

// Part 1, floats: the same single launch, with the compare-and-swap add in place of atomic_add.
kernel void
sum_float_atomic(global const float *in, global float *total, local float *scratch, const uint n)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    scratch[tid] = (gid < n) ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum(scratch, tid, L);
    // student: todo-4
    // TODO: the group's sum, scratch[0], is added to *total once per work-group, with
    //   atomic_add_float.
    // student-end
}

// Part 2, the accuracy baseline: one work-item adds its run of elements in order, one rounding per add.
kernel void
sum_naive(global const float *in, global float *sums, const uint n, const uint run)
{
    uint r = get_global_id(0);      // this work-item's run: in[r*run .. r*run + run - 1]
    uint first = r * run;           // the host keeps n + run below 2^32
    if (first >= n)
        return;                     // no barrier in this kernel: an early return is safe
    uint end = min(first + run, n);

    float acc = 0.0f;
    // student: todo-5
    // TODO: afterwards acc holds in[first] + in[first + 1] + ... + in[end - 1], added in this
    //   order, one element at a time (one rounding per add: the baseline of Part 2).
    // student-end
    sums[r] = acc;
}

// Part 2: the same run, Kahan-compensated: what each add rounds away is caught and fed back in.
kernel void
sum_kahan(global const float *in, global float *sums, const uint n, const uint run)
{
    uint r = get_global_id(0);
    uint first = r * run;
    if (first >= n)
        return;
    uint end = min(first + run, n);

    float sum = 0.0f;
    float c = 0.0f;                 // minus what the adds so far have lost
    // student: todo-6
    // TODO: the same sum as sum_naive, over the same elements in the same order, Kahan-compensated:
    //   each element is corrected by c, what the previous add lost, before it is added, and after
    //   each add c becomes exactly what that add lost, negated. Afterwards sum holds the run's
    //   total. The README (Part 2) gives the four steps and why the compiler must not regroup them.
    // student-end
    sums[r] = sum;
}

// Part 3: the work-efficient (Blelloch) scan of one work-group's L ints, and each block's total.
kernel void
scan_blocks(global const int *in, global int *out, global int *block_sums, local int *scratch,
            const uint n, const uint inclusive)
{
    uint tid = get_local_id(0);
    uint gid = get_global_id(0);
    uint L   = get_local_size(0);

    int x = (gid < n) ? in[gid] : 0;
    scratch[tid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-7
    // TODO 1, the up-sweep, a tree reduction that keeps its partial sums in place: at stride
    //   d = 1, 2, 4, ... while d < L, work-item tid owns the tid-th pair of the level (its right
    //   element at 2d(tid + 1) - 1, if that is below L), whose right element takes in the left.
    //   Afterwards scratch[L-1] holds the block's total; every work-item reaches each barrier.
    // student-end

    // The block's total goes out for the next level; the root is cleared: 0 is what comes before
    // the block's first element.
    if (tid == 0)
    {
        block_sums[get_group_id(0)] = scratch[L - 1];
        scratch[L - 1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-8
    // TODO 2, the down-sweep: the same pairs at stride d = L/2, ..., 1. Before a level, a pair's
    //   right element holds what comes before the pair; after it, the left element holds that and
    //   the right one that plus the left's old partial sum (README, Part 3). Afterwards scratch
    //   holds the exclusive scan of the block; every work-item reaches each barrier.
    // student-end

    // scratch now holds the exclusive scan; the inclusive one adds the element itself.
    if (gid < n)
        out[gid] = scratch[tid] + (inclusive ? x : 0);
}

// Part 3: block g of the scan takes in offsets[g], the exclusive scan of the block totals before it.
kernel void
add_block_offsets(global int *out, global const int *offsets, const uint n)
{
    // Launched with the same L as scan_blocks, so work-group g covers exactly block g.

    // student: todo-9
    // TODO: every element of block get_group_id(0) below n takes in offsets[get_group_id(0)].
    // student-end
}

// Part 3, compaction step 1: a 1 for every element to keep, a 0 for the others.
kernel void
compact_flags(global const int *in, global int *flags, const uint n)
{
    uint gid = get_global_id(0);
    if (gid < n)
        // student: todo-10
        // TODO: 1 where KEEP(in[gid]) holds, else 0 (the placeholder writes 0).
        flags[gid] = 0;
        // student-end
}

// Part 3, compaction step 3: each kept element writes itself at its scanned position, densely, in order.
kernel void
compact_scatter(global const int *in, global const int *positions, global int *out, global int *count,
                const uint n)
{
    // Step 2 was the exclusive scan of the flags: positions[i] = how many kept elements come
    // before element i. So no two work-items write the same place, and the order is kept; the
    // last work-item knows how many were kept in all.
    uint gid = get_global_id(0);
    if (gid >= n)
        return;
    // student: todo-11
    // TODO: a kept element (KEEP) of in goes to out at its scanned position; an element that is
    //   not kept writes nothing.
    // student-end
    if (gid == n - 1)
        // student: todo-12
        // TODO: count[0] is the number of elements kept in all: this element's position, plus
        //   1 if it is kept itself (the placeholder writes 0).
        count[0] = 0;
        // student-end
}

// Part 4: lab 06's cascade in ONE launch. Lab 06 needs a second launch (SumPartials) or a
// read-back of G partials to finish; here the last work-group to finish adds the partials itself.
// Each group stores its partial, then takes a ticket from a counter in global memory
// (atomic_inc); the group that draws ticket G - 1 knows every other group has stored its partial,
// adds the G of them, writes the result and sets the counter back to 0 for the next launch.
// Two fences make "stored before the ticket" hold for the reader too: OpenCL 1.2 orders one
// work-item's global stores only at a mem_fence, so without it the ticket may reach memory before
// the partial does, and the last group adds a stale partial (see the README, part 4).
// The local size L is a power of two; scratch holds L floats; ticket is 0 before the first launch.

// Your sweep from lab 06 (DotCascade's TODOs 1a, 1b and 2, both branches): this work-item's share
// of sum a_i b_i, returned. On a CPU the host builds with -D CONTIGUOUS, as in lab 06.
float dot_sweep(global const float *dA, global const float *dB, const uint n)
{
    uint gid = get_global_id(0);    // this work-item's number in the whole grid: 0 .. G*L-1
    float4 acc = (float4)(0.0f);
#ifdef CONTIGUOUS
    // student: lab06-sweep-cpu
    // TODO (from lab 06): paste what you wrote for lab 06's TODO 1a (DotCascade's CONTIGUOUS branch)
    //   as it is: it has gid, n, dA, dB and acc, as there. Afterwards acc holds this work-item's
    //   share of the products of the n / 4 whole chunks, one contiguous run of chunks per work-item.
    // student-end
#else
    // student: lab06-sweep-gpu
    // TODO (from lab 06): paste what you wrote for lab 06's TODO 1b, the grid-stride loop over the
    //   chunks: afterwards acc holds the products of the chunks gid, gid + G*L, ... below n / 4.
    // student-end
#endif
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    // student: lab06-tail
    // TODO (from lab 06): paste what you wrote for lab 06's TODO 2, the scalar tail: afterwards each
    //   of the last n % 4 elements has been added into the sum of exactly one work-item.
    // student-end
    return sum;
}

kernel void
dot_single_pass(global const float *dA, global const float *dB, local float *scratch, global float *partials,
                global uint *ticket, global float *result, const uint n)
{
    uint tid = get_local_id(0);
    uint L   = get_local_size(0);
    uint G   = get_num_groups(0);
    local uint last;                // 1 in the group that drew the last ticket

    scratch[tid] = dot_sweep(dA, dB, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum(scratch, tid, L);

    // student: todo-14
    // TODO: publish this group's partial sum (scratch[0]) where the last group to finish will read
    // it, then learn whether this group is that last one: one work-item draws a ticket from the
    // shared counter with an atomic (the count it returns says how many groups finished before).
    // Invariant: a group's partial is visible in global memory before its ticket is (README, part 4:
    // which fence makes it so, and what the last group adds without it); every work-item of the
    // group knows `last` before the test below.
    // student-end

    // The same value in every work-item of a group: the whole group goes on, or none of it.
    if (!last)
        return;

    // student: todo-15
    // TODO: the last group adds all G partials, every work-item taking its share, and stores the
    // total in result[0]; it leaves the ticket counter ready for the next launch with no write from
    // the host (other groups reach the counter with atomics, so it is reset with one too).
    // student-end
}
