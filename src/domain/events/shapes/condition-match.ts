// Why a CI job was retried (elements of ci_insights.job_retried `condition_matches`). The spec
// names three kinds without their shapes; these follow the reference. The two log-pattern kinds
// carry a `source` constant, so a strict object can only ever match one kind.
import { Type } from '@sinclair/typebox';
import { Nullable, StrictObject } from '../../schema-primitives.ts';

export const SimpleConditionMatch = StrictObject(
  {
    attribute: Type.String(),
    matched_value: Type.String(),
  },
  { title: 'SimpleConditionMatch' },
);

export const LogPatternAnnotationConditionMatch = StrictObject(
  {
    attribute: Type.String(),
    matched_value: Type.String(),
    source: Type.Literal('annotation'),
    annotation_title: Nullable(Type.String()),
    annotation_path: Type.String(),
  },
  { title: 'LogPatternAnnotationConditionMatch' },
);

export const LogPatternJobLogConditionMatch = StrictObject(
  {
    attribute: Type.String(),
    matched_value: Type.String(),
    source: Type.Literal('job_log'),
    matched_line_number: Type.Integer(),
  },
  { title: 'LogPatternJobLogConditionMatch' },
);

export const ConditionMatch = Type.Union([SimpleConditionMatch, LogPatternAnnotationConditionMatch, LogPatternJobLogConditionMatch], {
  title: 'ConditionMatch',
});
