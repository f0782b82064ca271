import { describe, expect, it } from 'vitest';
import { DerivedManifest } from './derived.js';

const skill = `To restart the ingress without dropping connections, scale the deployment to two replicas first,
wait for both pods to report ready, then roll the old replica set and watch the error rate on the dashboard
for five minutes before scaling back down to one replica again.`;

describe('DerivedManifest', () => {
  it('matches nothing while no artifact is registered', () => {
    expect(new DerivedManifest().matches(skill)).toBe(false);
  });

  it('tags a chunk that mostly repeats a registered artifact, even re-wrapped and re-cased', () => {
    const manifest = new DerivedManifest();
    manifest.register(skill);
    const chunk = `[assistant]\n${skill.toUpperCase().replace(/\n/g, ' ')}\n\nDone.`;
    expect(manifest.matches(chunk)).toBe(true);
  });

  it('leaves a chunk that only quotes a sentence of it among its own findings', () => {
    const manifest = new DerivedManifest();
    manifest.register(skill);
    const chunk = `[user]\nThe ingress restart failed last night. ${skill.split(',')[0]}.\n\n[assistant]\nThe root cause was a readiness probe that checked the wrong port; after fixing the port in the chart the rollout went through, and the error rate stayed flat. We also found the dashboard was missing the 5xx panel for the canary, so nobody saw the spike.`;
    expect(manifest.matches(chunk)).toBe(false);
  });

  it('names the artifact a derived text repeats most, and none for a text it does not tag', () => {
    const manifest = new DerivedManifest();
    manifest.register(
      'A short unrelated reference passage about rotating the signing keys yearly.',
      'reference:keys',
    );
    manifest.register(skill, 'skill:ingress');
    expect(manifest.matchedArtifact(`[assistant]\n${skill}`)).toBe('skill:ingress');
    expect(
      manifest.matchedArtifact('The export job failed because the worker disk filled up.'),
    ).toBeNull();
  });
});
