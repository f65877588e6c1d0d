/* conv_bench.c — GFLOP/s per layer of the AI Core engine's Conv and
 * ConvTranspose kernels (ge_engines/ai_core.h) on the layers of ResNet-18
 * (batch 1, 224x224), MobileNet-v2's depthwise convs, SqueezeNet 1.1's and
 * AlexNet's convs, 3x3 convs near the Winograd / small-image direct conv
 * crossover ("w|d"), dilated and 1-D wide convs, DenseNet-121's ("dn":
 * stem, 3x3 128->32 growth convs, 1x1 bottlenecks and transitions) and
 * ResNeXt-50's ("rx": 1x1 and 32-group 3x3) layers, and a PP-OCR-like
 * ConvTranspose: the kernel runs on one node with
 * Const weights (packed once, on the warm-up run), on 1 thread and on 2
 * (ge_runtime's pool: bench/conv_layers.h), alternating within a round;
 * each figure is the median of ROUNDS rounds. The ResNet-18 total weights
 * each layer by how often the network uses it (3.64 GFLOP per inference
 * with the fc layer). The FMA peak of one core is measured first with 24
 * independent AVX-512 FMA chains (AVX2 when the CPU has no AVX-512). The
 * 1-thread times are this thread's CPU time, the 2-thread ones wall time.
 *
 *   make build/conv_bench   (or: cc -std=c99 -O2 -I. bench/conv_bench.c -o build/conv_bench -lpthread -lm)
 *   build/conv_bench [ROUNDS] [FILTER]   (FILTER: only layers whose name contains it)
 *   COLD=96 build/conv_bench ...         (each run after a 96 MB sweep: weights cold, as in a model)
 */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "bench/conv_layers.h"
#include "bench/fma_peak.h"

static const layer layers[] = {
    {"r18 conv1 7x7/2 3->64", 0, 3, 224, 224, 64, 1, 7, 7, 2, 1, 3, 1, "Relu"},
    {"r18 l1 3x3 64->64", 0, 64, 56, 56, 64, 1, 3, 3, 1, 1, 1, 4, "Relu"},
    {"r18 l2 3x3/2 64->128", 0, 64, 56, 56, 128, 1, 3, 3, 2, 1, 1, 1, "Relu"},
    {"r18 l2 3x3 128->128", 0, 128, 28, 28, 128, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"r18 l2 1x1/2 64->128", 0, 64, 56, 56, 128, 1, 1, 1, 2, 1, 0, 1, NULL},
    {"r18 l3 3x3/2 128->256", 0, 128, 28, 28, 256, 1, 3, 3, 2, 1, 1, 1, "Relu"},
    {"r18 l3 3x3 256->256", 0, 256, 14, 14, 256, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"r18 l3 1x1/2 128->256", 0, 128, 28, 28, 256, 1, 1, 1, 2, 1, 0, 1, NULL},
    {"r18 l4 3x3/2 256->512", 0, 256, 14, 14, 512, 1, 3, 3, 2, 1, 1, 1, "Relu"},
    {"r18 l4 3x3 512->512", 0, 512, 7, 7, 512, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"r18 l4 1x1/2 256->512", 0, 256, 14, 14, 512, 1, 1, 1, 2, 1, 0, 1, NULL},
    {"mb2 stem 3x3/2 3->32 224", 0, 3, 224, 224, 32, 1, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 1x1 96->24 56", 0, 96, 56, 56, 24, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 1x1 24->144 56", 0, 24, 56, 56, 144, 1, 1, 1, 1, 1, 0, 1, "Clip"},
    {"mb2 dw3x3 32 112", 0, 32, 112, 112, 32, 32, 3, 3, 1, 1, 1, 1, "Clip"},
    {"mb2 dw3x3/2 96 112", 0, 96, 112, 112, 96, 96, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 dw3x3 144 56", 0, 144, 56, 56, 144, 144, 3, 3, 1, 1, 1, 1, "Clip"},
    {"mb2 dw3x3/2 144 56", 0, 144, 56, 56, 144, 144, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 dw3x3 192 28", 0, 192, 28, 28, 192, 192, 3, 3, 1, 1, 1, 2, "Clip"},
    {"mb2 dw3x3/2 192 28", 0, 192, 28, 28, 192, 192, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 dw3x3/2 576 14", 0, 576, 14, 14, 576, 576, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 dw3x3 384 14", 0, 384, 14, 14, 384, 384, 3, 3, 1, 1, 1, 4, "Clip"},
    {"mb2 dw3x3 576 14", 0, 576, 14, 14, 576, 576, 3, 3, 1, 1, 1, 2, "Clip"},
    {"mb2 dw3x3 960 7", 0, 960, 7, 7, 960, 960, 3, 3, 1, 1, 1, 2, "Clip"},
    {"mob stem 3x3/2 3->32 224 silu", 0, 3, 224, 224, 32, 1, 3, 3, 2, 1, 1, 1, "Silu"},
    {"mob conv 3x3 64->64 28 silu", 0, 64, 28, 28, 64, 1, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw3x3 32 112 silu", 0, 32, 112, 112, 32, 32, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw3x3 144 56 silu", 0, 144, 56, 56, 144, 144, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw3x3/2 96 112 silu", 0, 96, 112, 112, 96, 96, 3, 3, 2, 1, 1, 1, "Silu"},
    {"mob dw5x5 240 28 silu", 0, 240, 28, 28, 240, 240, 5, 5, 1, 1, 2, 1, "Silu"},
    {"mob dw5x5/2 240 28 silu", 0, 240, 28, 28, 240, 240, 5, 5, 2, 1, 2, 1, "Silu"},
    {"mob dw3x3 480 14 silu", 0, 480, 14, 14, 480, 480, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw5x5 672 14 silu", 0, 672, 14, 14, 672, 672, 5, 5, 1, 1, 2, 1, "Silu"},
    {"mob dw5x5 672 14 hswish", 0, 672, 14, 14, 672, 672, 5, 5, 1, 1, 2, 1, "HardSwish"},
    {"mob dw5x5 1152 7 silu", 0, 1152, 7, 7, 1152, 1152, 5, 5, 1, 1, 2, 1, "Silu"},
    {"cnx dw7x7 96 56", 0, 96, 56, 56, 96, 96, 7, 7, 1, 1, 3, 3, NULL},
    {"cnx dw7x7 192 28", 0, 192, 28, 28, 192, 192, 7, 7, 1, 1, 3, 3, NULL},
    {"cnx dw7x7 384 14", 0, 384, 14, 14, 384, 384, 7, 7, 1, 1, 3, 9, NULL},
    {"cnx dw7x7 768 7", 0, 768, 7, 7, 768, 768, 7, 7, 1, 1, 3, 3, NULL},
    {"cnx stem 4x4/4 3->96 224", 0, 3, 224, 224, 96, 1, 4, 4, 4, 1, 0, 1, NULL},
    {"cnx down 2x2/2 96->192 56", 0, 96, 56, 56, 192, 1, 2, 2, 2, 1, 0, 1, NULL},
    {"cnx down 2x2/2 192->384 28", 0, 192, 28, 28, 384, 1, 2, 2, 2, 1, 0, 1, NULL},
    {"cnx down 2x2/2 384->768 14", 0, 384, 14, 14, 768, 1, 2, 2, 2, 1, 0, 1, NULL},
    {"mob dw3x3 960 14 silu", 0, 960, 14, 14, 960, 960, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw3x3 1536 7 silu", 0, 1536, 7, 7, 1536, 1536, 3, 3, 1, 1, 1, 1, "Silu"},
    {"mob dw3x3 1536 7", 0, 1536, 7, 7, 1536, 1536, 3, 3, 1, 1, 1, 1, NULL},
    {"mob pw 256->1536 7 silu", 0, 256, 7, 7, 1536, 1, 1, 1, 1, 1, 0, 1, "Silu"},
    {"mob pw 1536->256 7", 0, 1536, 7, 7, 256, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mob pw 160->960 14 silu", 0, 160, 14, 14, 960, 1, 1, 1, 1, 1, 0, 1, "Silu"},
    {"mob pw 960->160 14", 0, 960, 14, 14, 160, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mob pw 16->96 112 silu", 0, 16, 112, 112, 96, 1, 1, 1, 1, 1, 0, 1, "Silu"},
    {"mob pw 32->16 112", 0, 32, 112, 112, 16, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mob pw 16->96 112 none", 0, 16, 112, 112, 96, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mob pw 16->96 112 relu", 0, 16, 112, 112, 96, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"3x3 16->16 80 (RSU)", 0, 16, 80, 80, 16, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 32->32 80 (RSU)", 0, 32, 80, 80, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 64->32 80 (RSU)", 0, 64, 80, 80, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 32->64 80 (RSU)", 0, 32, 80, 80, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 64->64 256 (IS-Net)", 0, 64, 256, 256, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 512->128 64 (IS-Net)", 0, 512, 64, 64, 128, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"dil 3x3 d2 64->64 40", 0, 64, 40, 40, 64, 1, 3, 3, 1, 2, 2, 1, "Relu"},
    {"dil 3x3 d8 16->16 20", 0, 16, 20, 20, 16, 1, 3, 3, 1, 8, 8, 1, "Relu"},
    {"1-D k=5 96->96 w=76", 0, 96, 1, 76, 96, 1, 1, 5, 1, 1, 2, 1, NULL},
    {"sq stem 3x3/2 3->64", 0, 3, 224, 224, 64, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"sq e3x3 16->64 55", 0, 16, 55, 55, 64, 1, 3, 3, 1, 1, 1, 2, "Relu"},
    {"sq e3x3 32->128 27", 0, 32, 27, 27, 128, 1, 3, 3, 1, 1, 1, 2, "Relu"},
    {"sq e3x3 48->192 13", 0, 48, 13, 13, 192, 1, 3, 3, 1, 1, 1, 2, "Relu"},
    {"sq e3x3 64->256 13", 0, 64, 13, 13, 256, 1, 3, 3, 1, 1, 1, 2, "Relu"},
    {"sq cls 1x1 512->1000 13", 0, 512, 13, 13, 1000, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"alex 11x11/4 3->64 224", 0, 3, 224, 224, 64, 1, 11, 11, 4, 1, 2, 1, "Relu"},
    {"alex 5x5 64->192 27", 0, 64, 27, 27, 192, 1, 5, 5, 1, 1, 2, 1, "Relu"},
    {"alex 3x3 192->384 13", 0, 192, 13, 13, 384, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"alex 3x3 384->256 13", 0, 384, 13, 13, 256, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"inc stem 3x3/2 3->32 299", 0, 3, 299, 299, 32, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"inc 3x3/2 288->384 35", 0, 288, 35, 35, 384, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"inc 3x3/2 96->96 35", 0, 96, 35, 35, 96, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"inc 3x3/2 192->320 17", 0, 192, 17, 17, 320, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"inc 3x3/2 192->192 17", 0, 192, 17, 17, 192, 1, 3, 3, 2, 1, 0, 1, "Relu"},
    {"inc 3x3 32->32 149", 0, 32, 149, 149, 32, 1, 3, 3, 1, 1, 0, 1, "Relu"},
    {"inc 3x3 32->64 147", 0, 32, 147, 147, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"inc 3x3 80->192 73", 0, 80, 73, 73, 192, 1, 3, 3, 1, 1, 0, 1, "Relu"},
    {"inc 3x3 64->96 35", 0, 64, 35, 35, 96, 1, 3, 3, 1, 1, 1, 4, "Relu"},
    {"inc 3x3 96->96 35", 0, 96, 35, 35, 96, 1, 3, 3, 1, 1, 1, 4, "Relu"},
    {"inc 5x5 48->64 35", 0, 48, 35, 35, 64, 1, 5, 5, 1, 1, 2, 3, "Relu"},
    {"inc 1x7 192->192 17", 0, 192, 17, 17, 192, 1, 1, 7, 1, 1, -1, 4, "Relu"},
    {"inc 7x1 192->192 17", 0, 192, 17, 17, 192, 1, 7, 1, 1, 1, -1, 4, "Relu"},
    {"inc 1x7 160->160 17", 0, 160, 17, 17, 160, 1, 1, 7, 1, 1, -1, 4, "Relu"},
    {"inc 7x1 128->128 17", 0, 128, 17, 17, 128, 1, 7, 1, 1, 1, -1, 2, "Relu"},
    {"inc 1x3 384->384 8", 0, 384, 8, 8, 384, 1, 1, 3, 1, 1, -1, 2, "Relu"},
    {"inc 3x1 384->384 8", 0, 384, 8, 8, 384, 1, 3, 1, 1, 1, -1, 2, "Relu"},
    {"3x3 32->32 40 (w|d)", 0, 32, 40, 40, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 16->32 56 (w|d)", 0, 16, 56, 56, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 48->48 28 (w|d)", 0, 48, 28, 28, 48, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 24->96 48 (w|d)", 0, 24, 48, 48, 96, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"3x3 32->32 64 (w|d)", 0, 32, 64, 64, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"dn stem 7x7/2 3->64", 0, 3, 224, 224, 64, 1, 7, 7, 2, 1, 3, 1, "Relu"},
    {"dn 3x3 128->32 56", 0, 128, 56, 56, 32, 1, 3, 3, 1, 1, 1, 6, NULL},
    {"dn 3x3 128->32 28", 0, 128, 28, 28, 32, 1, 3, 3, 1, 1, 1, 12, NULL},
    {"dn 3x3 128->32 14", 0, 128, 14, 14, 32, 1, 3, 3, 1, 1, 1, 24, NULL},
    {"dn 3x3 128->32 7", 0, 128, 7, 7, 32, 1, 3, 3, 1, 1, 1, 16, NULL},
    {"dn 1x1 64->128 56", 0, 64, 56, 56, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 224->128 56", 0, 224, 56, 56, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 256->128 56 tr", 0, 256, 56, 56, 128, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"dn 1x1 256->128 28", 0, 256, 28, 28, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 480->128 28", 0, 480, 28, 28, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 512->256 28 tr", 0, 512, 28, 28, 256, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"dn 1x1 512->128 14", 0, 512, 14, 14, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 992->128 14", 0, 992, 14, 14, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"dn 1x1 1024->128 7", 0, 1024, 7, 7, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"rx 1x1 64->128 56", 0, 64, 56, 56, 128, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"rx 1x1 128->256 56", 0, 128, 56, 56, 256, 1, 1, 1, 1, 1, 0, 3, NULL},
    {"rx 1x1 256->128 56", 0, 256, 56, 56, 128, 1, 1, 1, 1, 1, 0, 2, "Relu"},
    {"rx 1x1 256->256 56", 0, 256, 56, 56, 256, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"rx 1x1 512->256 28", 0, 512, 28, 28, 256, 1, 1, 1, 1, 1, 0, 3, "Relu"},
    {"rx 1x1 256->512 28", 0, 256, 28, 28, 512, 1, 1, 1, 1, 1, 0, 4, NULL},
    {"rx 1x1 512->512 28", 0, 512, 28, 28, 512, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"rx 1x1 1024->512 14", 0, 1024, 14, 14, 512, 1, 1, 1, 1, 1, 0, 5, "Relu"},
    {"rx 1x1 512->1024 14", 0, 512, 14, 14, 1024, 1, 1, 1, 1, 1, 0, 6, NULL},
    {"rx 1x1 2048->1024 7", 0, 2048, 7, 7, 1024, 1, 1, 1, 1, 1, 0, 2, "Relu"},
    {"rx g3x3 128 g32 56", 0, 128, 56, 56, 128, 32, 3, 3, 1, 1, 1, 3, "Relu"},
    {"rx g3x3/2 256 g32 56", 0, 256, 56, 56, 256, 32, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rx g3x3 256 g32 28", 0, 256, 28, 28, 256, 32, 3, 3, 1, 1, 1, 3, "Relu"},
    {"rx g3x3/2 512 g32 28", 0, 512, 28, 28, 512, 32, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rx g3x3 512 g32 14", 0, 512, 14, 14, 512, 32, 3, 3, 1, 1, 1, 5, "Relu"},
    {"rx g3x3 1024 g32 7", 0, 1024, 7, 7, 1024, 32, 3, 3, 1, 1, 1, 3, "Relu"},
    {"rgx 1x1 32->32 112", 0, 32, 112, 112, 32, 1, 1, 1, 1, 1, 0, 1, "Relu"},
    {"rgx g3x3/2 32 g2 112", 0, 32, 112, 112, 32, 2, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rgx g3x3/2 64 g4 56", 0, 64, 56, 56, 64, 4, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rgx 1x1 160->160 14", 0, 160, 14, 14, 160, 1, 1, 1, 1, 1, 0, 6, "Relu"},
    {"rgx 1x1 400->400 7", 0, 400, 7, 7, 400, 1, 1, 1, 1, 1, 0, 12, "Relu"},
    {"rgx g3x3/2 160 g10 28", 0, 160, 28, 28, 160, 10, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rgx g3x3 160 g10 14", 0, 160, 14, 14, 160, 10, 3, 3, 1, 1, 1, 6, "Relu"},
    {"rgx g3x3/2 400 g25 14", 0, 400, 14, 14, 400, 25, 3, 3, 2, 1, 1, 1, "Relu"},
    {"rgx g3x3 400 g25 7", 0, 400, 7, 7, 400, 25, 3, 3, 1, 1, 1, 11, "Relu"},
    {"convT 2x2/2 64->64 40", 1, 64, 40, 40, 64, 1, 2, 2, 2, 1, 0, 1, NULL},
    {"convT 2x2/2 64->1 80", 1, 64, 80, 80, 1, 1, 2, 2, 2, 1, 0, 1, NULL},
    {"convT 4x4/2 p1 32->32 40", 1, 32, 40, 40, 32, 1, 4, 4, 2, 1, 1, 1, NULL},
};
#define NUM_LAYERS (sizeof layers / sizeof layers[0])

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5, r;
  const char *filter = argc > 2 ? argv[2] : NULL;
  double total[2] = {0, 0}, r18_flop = 0, peak = bench_fma_peak();
  size_t li;
  if (rounds < 1) rounds = 1;
  if (rounds > 32) rounds = 32;
  printf("Conv kernels, GFLOP/s (median of %d rounds, 1 and 2 threads alternating); one core's FMA peak %.1f GFLOP/s\n\n",
         rounds, peak);
  printf("| layer                     | count | MFLOP | 1t GFLOP/s | 2t GFLOP/s | 1t ms | 2t ms |\n");
  printf("|---------------------------|------:|------:|-----------:|-----------:|------:|------:|\n");
  for (li = 0; li < NUM_LAYERS; li++) {
    const layer *l = &layers[li];
    setup s[2];
    double t[2][32], med[2];
    int th;
    if (filter && !strstr(l->name, filter)) continue;
    if (!setup_make(&s[0], l, 1) || !setup_make(&s[1], l, 2)) {
      printf("| %-25s | setup failed: %s\n", l->name, s[0].t.err.message);
      setup_free(&s[0]);
      setup_free(&s[1]);
      continue;
    }
    for (r = 0; r < rounds; r++)
      for (th = 0; th < 2; th++) t[th][r] = time_runs(&s[th]);
    for (th = 0; th < 2; th++) {
      qsort(t[th], (size_t)rounds, sizeof(double), cmp_d);
      med[th] = t[th][rounds / 2];
      if (!strncmp(l->name, "r18", 3)) total[th] += med[th] * (double)l->count;
    }
    if (!strncmp(l->name, "r18", 3)) r18_flop += s[0].flop * (double)l->count;
    printf("| %-25s | %5lld | %5.0f | %10.1f | %10.1f | %5.3f | %5.3f |\n", l->name, (long long)l->count,
           s[0].flop / 1e6, s[0].flop / med[0] / 1e9, s[0].flop / med[1] / 1e9, med[0] * 1e3, med[1] * 1e3);
    setup_free(&s[0]);
    setup_free(&s[1]);
  }
  if (r18_flop > 0)
    printf("\nResNet-18 convs (each layer times its count): %.2f GFLOP; 1 thread %.2f ms = %.1f GFLOP/s (%.0f%% of "
           "peak); 2 threads %.2f ms = %.1f GFLOP/s (%.0f%% of 2 cores)\n",
           r18_flop / 1e9, total[0] * 1e3, r18_flop / total[0] / 1e9, 100 * r18_flop / total[0] / 1e9 / peak,
           total[1] * 1e3, r18_flop / total[1] / 1e9, 50 * r18_flop / total[1] / 1e9 / peak);
  return 0;
}
