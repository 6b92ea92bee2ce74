// Lab 07 mistake: the block of output texel out starts at out, not at 2 * out (4 * out).
#ifdef MIN_INSTEAD
#define PICK(a, b) fmin((a), (b))
#else
#define PICK(a, b) fmax((a), (b))
#endif

constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void max_pyramid_2x2(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 1) / 2 || out.y >= (src_size.y + 1) / 2)
        return;
    const int2 last = src_size - 1;
    float best = read_imagef(src, nearest, out).x;
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
            best = PICK(best, read_imagef(src, nearest, min(out + (int2)(dx, dy), last)).x);
    write_imagef(dst, out, (float4)(best, 0.0f, 0.0f, 1.0f));
}

kernel void max_pyramid_4x4(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 3) / 4 || out.y >= (src_size.y + 3) / 4)
        return;
    const int2 last = src_size - 1;
    float best = read_imagef(src, nearest, out).x;
    for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx)
            best = PICK(best, read_imagef(src, nearest, min(out + (int2)(dx, dy), last)).x);
    write_imagef(dst, out, (float4)(best, 0.0f, 0.0f, 1.0f));
}
