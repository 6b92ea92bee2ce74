// Lab 01 host program: C = A * B element-wise, timed, in GigaMultiplies per second.
#include "elementwise.hpp"

int main(int argc, char** argv) { return elementwise::main(elementwise::array_mult(), argc, argv); }
