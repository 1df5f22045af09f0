/*
 * An HBEL monograph of the plan's library as tests post it (issue 32), with ICH Q3C's 2-MTHF
 * numbers: 250 mg/kg/day × 50 kg / (F1·F2·F3·F4·F5 = 5·10·F3·1·1); F3 = 5 gives 50 mg/day, F3 = 10
 * gives 25 mg/day.
 */
export const testMonograph = (substance: string, f3 = 5) => ({
  substance,
  pointOfDeparture: {
    type: 'NOAEL',
    value: 250,
    unit: 'mg/kg',
    species: 'rat',
    route: 'oral',
    studyReference: '13-week oral gavage study, report TX-0042',
  },
  factors: { f1: 5, f2: 10, f3, f4: 1, f5: 1 },
});
