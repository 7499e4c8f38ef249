// Image canvas templates: a scene of layers rendered to PNG, JPEG, WebP or PDF without a browser
// (docs/decisions/0014-image-canvas-scene.md).
export type { CanvasFormat } from './encode-output.ts'
export { canvasSceneRenderer, imageCanvasPlugin } from './image-canvas-plugin.ts'
export { type CanvasImageOptions, type RenderSceneOptions, renderScene } from './render-scene.ts'
export { applySceneData } from './scene-data.ts'
export {
  BARCODE_SYMBOLOGIES,
  LAYER_TYPES,
  type Layer,
  type LayerType,
  MAX_CANVAS_SIDE,
  type Scene,
  SceneSchema,
} from './scene-schema.ts'
export { type SceneProblem, sceneProblems, validateScene } from './scene-validation.ts'
