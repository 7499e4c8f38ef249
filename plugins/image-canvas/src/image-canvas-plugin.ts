import { definePlugin, type SceneRenderer } from '@docsvc/core/sdk'
import type { CanvasImageOptions } from './render-scene.ts'
import { renderScene } from './render-scene.ts'
import { type Scene, SceneSchema } from './scene-schema.ts'
import { validateScene } from './scene-validation.ts'

/** Draws core's image_canvas templates; validation throws scene_invalid before any drawing. */
export const canvasSceneRenderer: SceneRenderer = {
  schema: SceneSchema,
  validate: (scene) => validateScene(scene),
  render: (scene, data, options) =>
    renderScene(scene as Scene, data, { ...options, image: options.image as CanvasImageOptions | undefined }),
}

/** The `image_canvas` scene renderer of templates (docs/decisions/0014-image-canvas-scene.md). */
export const imageCanvasPlugin = definePlugin({
  id: 'image-canvas',
  apiVersion: '^1',
  provides: { sceneRenderers: ['image_canvas'] },
  register({ registries }) {
    registries.sceneRenderers.add('image_canvas', canvasSceneRenderer)
  },
})
