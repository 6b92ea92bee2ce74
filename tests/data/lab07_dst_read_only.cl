// Lab 07 mistake: the output image is declared read_only (it compiles, since it is never written).
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void max_pyramid_2x2(read_only image2d_t src, read_only image2d_t dst, const int2 src_size)
{
}

kernel void max_pyramid_4x4(read_only image2d_t src, read_only image2d_t dst, const int2 src_size)
{
}
