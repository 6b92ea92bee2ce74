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
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // student-end
}

void tree_sum_int(local int *scratch, const uint tid, const uint L)
{
    // student: lab04-tree-int
    for (uint s = L / 2; s > 0; s >>= 1)
    {
        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
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
    // One work-item per group, one atomic read-modify-write: no update of another group is lost.
    if (tid == 0)
        atomic_add(total, scratch[0]);
    // student-end
}

// OpenCL 1.2 has no atomic add for floats: read the total, add, and swap the new bits in only if
// the total still holds the bits that were read; otherwise another work-group got there first,
// and the loop starts again from a fresh read. The plain read may see a stale value (Oclgrind
// calls it a race): the swap then fails and the loop retries, so no update is lost.
// slide: atomic-add-float
void atomic_add_float(volatile global float *total, const float value)
{
    union { uint u; float f; } seen, sum;
    // student: todo-3
    do {
        seen.f = *total;
        sum.f = seen.f + value;
    } while (atomic_cmpxchg((volatile global uint *)total, seen.u, sum.u) != seen.u);
    // student-end
}
// slide-end

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
    if (tid == 0)
        atomic_add_float(total, scratch[0]);
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
    for (uint i = first; i < end; ++i)
        acc += in[i];
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
    for (uint i = first; i < end; ++i)
    {
        float y = in[i] - c;        // the next element, corrected by the last loss
        float t = sum + y;          // rounds: the low bits of y are lost here ...
        c = (t - sum) - y;          // ... and recovered here exactly (as long as |sum| >= |y|)
        sum = t;
    }
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
    // Up-sweep: at stride d = 1, 2, 4, ... the right element of each pair of 2d-wide halves takes
    // in the left one. Work-item t owns the pair ending at i = 2d(t+1) - 1. Afterwards
    // scratch[L-1] holds the block's total and every scratch[2^k m - 1] a partial sum of its span.
    // slide: scan-upsweep
    for (uint d = 1; d < L; d <<= 1)
    {
        uint i = 2 * d * (tid + 1) - 1;
        if (i < L)
            scratch[i] += scratch[i - d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // student-end
    // slide-end

    // The block's total goes out for the next level; the root is cleared: 0 is what comes before
    // the block's first element.
    if (tid == 0)
    {
        block_sums[get_group_id(0)] = scratch[L - 1];
        scratch[L - 1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // student: todo-8
    // Down-sweep: at stride d = L/2, ..., 1 each pair passes what comes before it down: the left
    // element gets the pair's prefix, the right one the prefix plus the left's old partial sum.
    for (uint d = L / 2; d > 0; d >>= 1)
    {
        uint i = 2 * d * (tid + 1) - 1;
        if (i < L)
        {
            int left = scratch[i - d];
            scratch[i - d] = scratch[i];
            scratch[i] += left;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
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
    uint gid = get_global_id(0);
    if (gid < n)
        out[gid] += offsets[get_group_id(0)];
    // student-end
}

// Part 3, compaction step 1: a 1 for every element to keep, a 0 for the others.
kernel void
compact_flags(global const int *in, global int *flags, const uint n)
{
    uint gid = get_global_id(0);
    if (gid < n)
        // student: todo-10
        flags[gid] = KEEP(in[gid]) ? 1 : 0;
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
    int x = in[gid];
    if (KEEP(x))
        out[positions[gid]] = x;
    // student-end
    if (gid == n - 1)
        // student: todo-12
        count[0] = positions[gid] + (KEEP(x) ? 1 : 0);
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
    uint chunks = n / 4, per_item = (chunks + get_global_size(0) - 1) / get_global_size(0);
    uint i = min(gid * per_item, chunks), end = min(i + per_item, chunks);
    float8 s0 = (float8)(0.0f), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    for (; i + 16 <= end; i += 16) {
        global const float *a = dA + 4 * i, *b = dB + 4 * i;
        s0 += vload8(0, a) * vload8(0, b);
        s1 += vload8(1, a) * vload8(1, b);
        s2 += vload8(2, a) * vload8(2, b);
        s3 += vload8(3, a) * vload8(3, b);
        s4 += vload8(4, a) * vload8(4, b);
        s5 += vload8(5, a) * vload8(5, b);
        s6 += vload8(6, a) * vload8(6, b);
        s7 += vload8(7, a) * vload8(7, b);
    }
    s0 = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    acc = s0.lo + s0.hi;
    for (; i < end; ++i)
        acc += vload4(i, dA) * vload4(i, dB);
    // student-end
#else
    // student: lab06-sweep-gpu
    for (uint i = gid; i < n / 4; i += get_global_size(0))
        acc += vload4(i, dA) * vload4(i, dB);
    // student-end
#endif
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    // student: lab06-tail
    for (uint k = gid; k < n % 4; k += get_global_size(0))
        sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];
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
    // Store the partial, fence, take a ticket: the fence keeps the store ahead of the ticket.
    if (tid == 0)
    {
        partials[get_group_id(0)] = scratch[0];
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last = (atomic_inc(ticket) == G - 1);
        mem_fence(CLK_GLOBAL_MEM_FENCE);    // and the reads below stay behind the ticket
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    // student-end

    // The same value in every work-item of a group: the whole group goes on, or none of it.
    if (!last)
        return;

    // student: todo-15
    // The last group: each work-item adds every L-th partial, then one more tree.
    float sum = 0.0f;
    for (uint t = tid; t < G; t += L)
        sum += partials[t];
    scratch[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    tree_sum(scratch, tid, L);
    if (tid == 0)
    {
        result[0] = scratch[0];
        atomic_xchg(ticket, 0);             // ready for the next launch, with no write from the host
    }
    // student-end
}
