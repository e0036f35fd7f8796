// The partner API's organizations (/v2/orgs), as production documents them: the request bodies
// and OrganizationData.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { REGIONS } from '../../domain/models.js';
import { LIMITS } from '../limits.js';
import { httpUrl, isoTime } from './schemas.js';

const orgFields = lazy(() => ({
  name: z.string().min(1).max(LIMITS.orgNameMax),
  contact: z.string().max(LIMITS.orgContactMax),
  website: httpUrl().max(LIMITS.urlMax),
  feature_flags: z.array(z.string().max(LIMITS.orgFeatureFlagMax)).max(LIMITS.orgFeatureFlagsMax),
  preferred_region: z.enum(REGIONS),
}));

/** name, contact and website are required; the region defaults to ap-south-1 as in production. */
export const createOrgBody = lazy(() =>
  z.object({
    ...orgFields(),
    feature_flags: orgFields().feature_flags.optional(),
    preferred_region: orgFields().preferred_region.optional(),
  }),
);

export const editOrgBody = lazy(() =>
  z.object({
    name: orgFields().name.optional(),
    contact: orgFields().contact.optional(),
    website: orgFields().website.optional(),
    feature_flags: orgFields().feature_flags.optional(),
    preferred_region: orgFields().preferred_region.optional(),
  }),
);

export const orgParams = lazy(() => z.object({ org_id: z.uuid() }));

/** OrganizationData: the API key is shown, the partner owning every organization. */
export const orgSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    contact: z.string(),
    website: z.string(),
    apikey: z.string(),
    preferred_region: z.enum(REGIONS),
    feature_flags: z.array(z.string()),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);
