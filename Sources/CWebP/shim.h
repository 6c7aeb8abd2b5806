#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
