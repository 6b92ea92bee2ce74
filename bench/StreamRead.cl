// The memory-bandwidth roof: read two arrays as lab 06's cascade does, with the least arithmetic
// (adds, no multiplies, no tree); one float per work-item keeps the loads alive. Grid-stride float4
// on a GPU; on a CPU (-D CONTIGUOUS) one contiguous run per work-item with eight float8 sums, the
// cascade's way of keeping four cache lines of each array in flight. n4 counts float4 chunks.
kernel void StreamRead(global const float4 *a, global const float4 *b, global float *out, const uint n4)
{
    float4 acc = (float4)(0.0f);
#ifdef CONTIGUOUS
    uint per_item = (n4 + get_global_size(0) - 1) / get_global_size(0);
    uint i = min((uint)get_global_id(0) * per_item, n4), end = min(i + per_item, n4);
    global const float *fa = (global const float *)a, *fb = (global const float *)b;
    float8 s0 = (float8)(0.0f), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    for (; i + 16 <= end; i += 16) {
        global const float *x = fa + 4 * i, *y = fb + 4 * i;
        s0 += vload8(0, x) + vload8(0, y);
        s1 += vload8(1, x) + vload8(1, y);
        s2 += vload8(2, x) + vload8(2, y);
        s3 += vload8(3, x) + vload8(3, y);
        s4 += vload8(4, x) + vload8(4, y);
        s5 += vload8(5, x) + vload8(5, y);
        s6 += vload8(6, x) + vload8(6, y);
        s7 += vload8(7, x) + vload8(7, y);
    }
    s0 = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    acc = s0.lo + s0.hi;
    for (; i < end; ++i)
        acc += a[i] + b[i];
#else
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        acc += a[i] + b[i];
#endif
    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}

// The latency floor: a launch that does nothing, followed on the host by a 4-byte read. No
// reduction that launches once and reads its result back can finish sooner.
kernel void Empty(global float *out)
{
}
