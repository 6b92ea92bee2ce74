// Lab 07 mistake: CLK_ADDRESS_CLAMP and no clamping of its own: past the input's right and
// bottom edge the sampler returns its border colour, whose red channel is 0.
#ifdef MIN_INSTEAD
#define PICK(a, b) fmin((a), (b))
#else
#define PICK(a, b) fmax((a), (b))
#endif

constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void max_pyramid_2x2(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 1) / 2 || out.y >= (src_size.y + 1) / 2)
        return;
    const int2 first = 2 * out;
    const float a = read_imagef(src, nearest, first).x;
    const float b = read_imagef(src, nearest, first + (int2)(1, 0)).x;
    const float c = read_imagef(src, nearest, first + (int2)(0, 1)).x;
    const float d = read_imagef(src, nearest, first + (int2)(1, 1)).x;
    write_imagef(dst, out, (float4)(PICK(PICK(a, b), PICK(c, d)), 0.0f, 0.0f, 1.0f));
}

kernel void max_pyramid_4x4(read_only image2d_t src, write_only image2d_t dst, const int2 src_size)
{
    const int2 out = (int2)(get_global_id(0), get_global_id(1));
    if (out.x >= (src_size.x + 3) / 4 || out.y >= (src_size.y + 3) / 4)
        return;
    float best = read_imagef(src, nearest, 4 * out).x;
    for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx)
            best = PICK(best, read_imagef(src, nearest, 4 * out + (int2)(dx, dy)).x);
    write_imagef(dst, out, (float4)(best, 0.0f, 0.0f, 1.0f));
}
