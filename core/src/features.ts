import type { FeatureModule } from './kernel/feature-module.ts'

/** The core features beyond the render pipeline, listed explicitly (no folder scanning). */
export const FEATURE_MODULES: FeatureModule[] = []
