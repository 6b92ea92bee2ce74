// Lab 02 host program: D = A * B + C element-wise, timed, in GigaMultiply-Adds per second.
#include "elementwise.hpp"

int main(int argc, char** argv) { return elementwise::main(elementwise::array_mult_add(), argc, argv); }
