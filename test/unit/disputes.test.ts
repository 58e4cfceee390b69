import { describe, expect, test } from '@jest/globals';
import { FLOW_SCENARIOS, scenarioOf, SCENARIO_STEPS } from '../../server/checkout/disputes/disputes.domain.js';

describe('Dispute test scenarios by holder name', () => {
  test.each([
    ['Chargeback:10.4', { scenario: 'chargeback', reasonCode: '10.4' }],
    ['chargeback:4837', { scenario: 'chargeback', reasonCode: '4837' }],
    ['  Chargeback : F29 ', { scenario: 'chargeback', reasonCode: 'F29' }],
    ['Chargeback', { scenario: 'chargeback' }],
    ['CHARGEBACK  REVERSED', { scenario: 'chargebackReversed' }],
    ['Second Chargeback', { scenario: 'secondChargeback' }],
    ['Chargeback:', undefined],
    ['Chargeback: 10.4 later', undefined],
    ['John Smith', undefined],
    ['REFUSED', undefined],
    [null, undefined],
  ])('When the holder name is %p, then the scenario is %p', (holderName, expected) => {
    expect(scenarioOf(holderName)).toEqual(expected);
  });

  test('When the holder-name scenarios are listed, then each starts with the notification and the chargeback, in Adyen order', () => {
    const { chargeback, chargebackReversed, secondChargeback } = SCENARIO_STEPS;
    expect(
      Object.fromEntries(Object.entries({ chargeback, chargebackReversed, secondChargeback }).map(([name, steps]) => [name, steps.map((s) => s.eventCode)])),
    ).toEqual({
      chargeback: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED'],
      chargebackReversed: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED'],
      secondChargeback: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK'],
    });
  });

  test('When the flows on demand are listed, then every scenario is a holder name or a flow, and each starts with a request for information or a notification of chargeback', () => {
    const started = new Set(['chargeback', 'chargebackReversed', 'secondChargeback', ...Object.values(FLOW_SCENARIOS).flatMap((o) => Object.values(o))]);
    expect([...started].sort()).toEqual(Object.keys(SCENARIO_STEPS).sort());
    for (const steps of Object.values(SCENARIO_STEPS)) {
      expect(['REQUEST_FOR_INFORMATION', 'NOTIFICATION_OF_CHARGEBACK']).toContain(steps[0]!.eventCode);
      expect(steps[0]!.afterMs).toBe(0);
    }
  });
});
