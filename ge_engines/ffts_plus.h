/* ge_engines/ffts_plus.h — ffts_plus, the composite engine.
 *
 * Part of ge. A composite engine places no single node: composite
 * partitioning (ge_partition.h) first groups regions whose nodes all sit on
 * its member engines — AI Core, Vector and AI CPU Ascend — so the region can
 * run as one task; then atomic partitioning splits inside. Its nodes keep
 * the kernels of their atomic engines. It manages its own streams
 * (skip_assign_stream) and attaches to its neighbours'.
 *
 * Define GE_FFTS_PLUS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one
 * translation unit. */
#ifndef GE_ENGINE_FFTS_PLUS_H
#define GE_ENGINE_FFTS_PLUS_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

GE_API const ge_engine *ge_ffts_plus_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_FFTS_PLUS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_FFTS_PLUS_IMPLEMENTATION)
#ifndef GE_FFTS_PLUS_IMPLEMENTATION_DONE
#define GE_FFTS_PLUS_IMPLEMENTATION_DONE

#ifdef __cplusplus
extern "C" {
#endif

static const char *const ge__ffts_members[] = {"AIcoreEngine", "VectorEngine", "DNN_VM_AICPU_ASCEND", NULL};

static const ge_engine ge__ffts_engine = {
    GE_ENGINE_ABI_VERSION, "ffts_plus", "FftsPlus", 1, GE_RUNTIME_DEVICE,
    GE_ENGINE_COMPOSITE | GE_ENGINE_SKIP_ASSIGN_STREAM | GE_ENGINE_ATTACH, ge__ffts_members, NULL, NULL, NULL, NULL,
    NULL, NULL, NULL};

GE_API const ge_engine *ge_ffts_plus_engine(void) { return &ge__ffts_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_FFTS_PLUS_IMPLEMENTATION_DONE */
#endif /* GE_FFTS_PLUS_IMPLEMENTATION */
