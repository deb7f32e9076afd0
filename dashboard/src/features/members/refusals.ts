import { useMemo } from 'react';
import type { OwnWords } from '../../api/describe';
import { isApiError } from '../../api/errors';
import type { Messages } from '../../i18n/en';
import { useT } from '../../i18n/I18nProvider';

/**
 * The refusals of a change to the members, in words that say why: only an owner touches an owner (403). Where no
 * field shows the API's 422 (a removal), its own sentence says it, such as that the last owner stays.
 */
export function memberRefusals(t: Messages, fieldsShown: boolean): OwnWords {
  return (error) => {
    if (!isApiError(error)) return null;
    if (error.status === 403) return t.members.ownerOnly;
    if (error.status === 422 && !fieldsShown) return error.message;
    return null;
  };
}

/** The members' refusals (see `memberRefusals`) in the reader's language, the same while it stays. */
export function useMemberRefusals(fieldsShown: boolean): OwnWords {
  const t = useT();
  return useMemo(() => memberRefusals(t, fieldsShown), [t, fieldsShown]);
}
