import type { AppContext } from '#server/http/app-context.ts';
import { registerEquipmentImageRoutes } from './equipment-images.routes.ts';
import { registerEquipmentMappingRoutes } from './equipment-mapping.routes.ts';
import { registerSampleRoutes } from './samples.routes.ts';
import { registerSamplingLocationRoutes } from './sampling-locations.routes.ts';

/** What the equipment entity's generic routes do not cover (spec §7 equipment calls). */
export function registerEquipmentExtrasRoutes(context: AppContext): void {
  registerEquipmentMappingRoutes(context);
  registerEquipmentImageRoutes(context);
  registerSamplingLocationRoutes(context);
  registerSampleRoutes(context);
}
