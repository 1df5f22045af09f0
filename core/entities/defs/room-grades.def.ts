import type { RecordDecl } from '../record-decl.ts';

/**
 * The facility's four room grades (A to D, EU GMP Annex 1), each with the equipment standing in
 * it: a mapping is a write of the grade through the one write path, besides the equipment's own.
 */
export const roomGradesDecl = {
  key: 'roomGrades',
  label: 'Room grade',
  table: 'room_grades',
  domain: 'RoomGrade',
} as const satisfies RecordDecl;
