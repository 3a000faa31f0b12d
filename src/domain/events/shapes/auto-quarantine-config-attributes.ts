// CI Insights auto-quarantine settings as recorded on ci_insights.auto_quarantine.* events.
import { Type } from '@sinclair/typebox';
import { StrictObject } from '../../schema-primitives.ts';

export const AutoQuarantineConfigAttributes = StrictObject(
  { ignore_broken_on_default_branch: Type.Boolean() },
  { title: 'AutoQuarantineConfigAttributes' },
);
