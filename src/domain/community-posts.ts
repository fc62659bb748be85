// Community rules, pure: who may write, and what a post or comment may hold.
import { roleAtLeast, type RoleName } from './roles.ts';

export const MAX_TEXT = 2000;

export interface CommunitySettings {
  enabled: boolean;
  postAllowedContent: string;
  postAuthorMinRole: string;
}

/** Null when the role may write in the community; otherwise why not. */
export function communityWriteProblem(settings: CommunitySettings, role: string): string | null {
  if (!settings.enabled) return 'the community is disabled in this company';
  if (!roleAtLeast(role as RoleName, settings.postAuthorMinRole as RoleName))
    return `the community is open to ${settings.postAuthorMinRole}s and above`;
  return null;
}

export function textProblem(text: string | null | undefined): string | null {
  if (text == null || text.trim() === '') return 'text must not be empty';
  if (text.length > MAX_TEXT) return `text must be at most ${MAX_TEXT} characters`;
  return null;
}

export function imageUrlProblem(settings: CommunitySettings, imageUrl: string | null | undefined): string | null {
  if (imageUrl == null) return null;
  if (settings.postAllowedContent !== 'textAndImage') return 'this company allows text-only posts';
  try {
    const url = new URL(imageUrl);
    if (url.protocol !== 'https:') return 'imageUrl must be an https URL';
  } catch {
    return 'imageUrl must be an https URL';
  }
  return imageUrl.length > 2048 ? 'imageUrl is too long' : null;
}
