import type { Backend } from './backend.js';
import type { Ledger, Partner } from './partners.js';

/**
 * The backend's state after the run against what the mutations reported: everything confirmed is
 * there, nothing refused is, and what timed out may be either. Also: no partner holds another's
 * campaigns or pins, and no pin is stored twice.
 */
export interface StateCheck {
  partner: string;
  campaigns: { initial: number; confirmed: number; refused: number; unknown: number; unknownStored: number; atBackend: number };
  pins: { confirmed: number; refused: number; unknown: number; atBackend: number };
  leads: { confirmed: number; refused: number; unknown: number; atBackend: number };
  problems: string[];
}

const counts = <K>(l: Ledger<K>) => ({ confirmed: l.confirmed.size, refused: l.refused.size, unknown: l.unknown.size });

export async function verifyState(backend: Backend, partners: Partner[]): Promise<StateCheck[]> {
  const checks: StateCheck[] = [];
  for (const p of partners) {
    const problems: string[] = [];

    // Campaigns: every id is an initial one, a confirmed create, or a create whose answer timed out.
    const ids = await backend.campaignIds(p.token);
    const extra = ids.filter((id) => !p.ids.has(id));
    const missing = [...p.ids].filter((id) => !ids.includes(id));
    if (missing.length) problems.push(`campaigns reported created (or there at the start) are missing: ${missing.slice(0, 10).join(', ')}`);
    let unknownStored = 0;
    for (const id of extra) {
      const record = await backend.campaign(p.token, id);
      const pcid = record.partnerCampaignId as number;
      if (p.creates.unknown.has(pcid)) unknownStored++;
      else problems.push(`campaign ${id} (partnerCampaignId ${pcid}) is at the backend though its create was ${p.creates.refused.has(pcid) ? 'reported refused' : 'never sent by this partner'}`);
    }
    if (new Set(ids).size !== ids.length) problems.push('the campaign list holds an id twice');

    // Pins: exactly the confirmed ones, plus some of those whose answer timed out.
    const pins = await backend.pins(p.token, p.pinCampaign);
    const pinSet = new Set(pins.map((x) => x.toLowerCase()));
    if (pinSet.size !== pins.length) problems.push(`${pins.length - pinSet.size} pins are stored twice`);
    const lostPins = [...p.pins.confirmed].filter((pin) => !pinSet.has(pin.toLowerCase()));
    if (lostPins.length) problems.push(`${lostPins.length} pins reported stored are missing, such as ${lostPins.slice(0, 3).join(', ')}`);
    const strayPins = pins.filter((pin) => !p.pins.confirmed.has(pin) && !p.pins.unknown.has(pin));
    if (strayPins.length) problems.push(`${strayPins.length} pins are stored that were reported refused or never sent here, such as ${strayPins.slice(0, 3).join(', ')}`);

    // Leads: between the confirmed reports and those plus the ones whose answer was lost.
    const redeems = await backend.redeems(p.token, p.leadCampaign);
    if (redeems < p.leads.confirmed.size || redeems > p.leads.confirmed.size + p.leads.unknown.size) {
      problems.push(`the lead campaign counts ${redeems} leads; reported: ${p.leads.confirmed.size} confirmed, ${p.leads.unknown.size} unknown`);
    }

    checks.push({
      partner: p.name,
      campaigns: { initial: p.initialIds.size, ...counts(p.creates), unknownStored, atBackend: ids.length },
      pins: { ...counts(p.pins), atBackend: pins.length },
      leads: { ...counts(p.leads), atBackend: redeems },
      problems,
    });
  }
  return checks;
}
