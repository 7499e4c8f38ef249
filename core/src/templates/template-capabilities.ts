import type { Registries } from '../kernel/plugins/extension-points.ts'
import { requiredCapability } from '../kernel/plugins/required-capability.ts'
import type { DocumentBuilder, SceneRenderer, TemplateEngine } from '../sdk/document-contracts.ts'

// The plugin capabilities templates and previews use, looked up when a request needs them
// (docs/decisions/0036-core-imports-no-plugin.md). The keys are the names SPEC gives them.

export type TemplateCapabilities = Pick<Registries, 'templateEngines' | 'documentBuilders' | 'sceneRenderers'>

/** SPEC 4.9: templates are written in Liquid. */
export function templateEngine(registries: TemplateCapabilities): TemplateEngine {
  return requiredCapability(registries.templateEngines, 'liquid')
}

export function documentBuilder(
  registries: TemplateCapabilities,
  kind: 'html' | 'markdown',
): DocumentBuilder {
  return requiredCapability(registries.documentBuilders, kind)
}

export function sceneRenderer(registries: TemplateCapabilities): SceneRenderer {
  return requiredCapability(registries.sceneRenderers, 'image_canvas')
}
