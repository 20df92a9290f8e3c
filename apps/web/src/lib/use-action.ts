import { useCallback, useEffect, useRef, useState } from 'react';

export interface Action<I, O> {
  mutate: (input: I, options?: { onSuccess?: (output: O) => void }) => void;
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  error: unknown;
}

type Status = { kind: 'idle' | 'pending' | 'success' } | { kind: 'error'; error: unknown };

/**
 * One request a button sends, with its pending, success and error state: the shape of a TanStack
 * Query mutation, for the sign-in page, which loads no query library.
 */
export function useAction<I, O>(run: (input: I) => Promise<O>): Action<I, O> {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const mutate = useCallback(
    (input: I, options?: { onSuccess?: (output: O) => void }) => {
      setStatus({ kind: 'pending' });
      run(input).then(
        (output) => {
          if (!mounted.current) return;
          setStatus({ kind: 'success' });
          options?.onSuccess?.(output);
        },
        (error: unknown) => {
          if (mounted.current) setStatus({ kind: 'error', error });
        },
      );
    },
    [run],
  );
  return {
    mutate,
    isPending: status.kind === 'pending',
    isSuccess: status.kind === 'success',
    isError: status.kind === 'error',
    error: status.kind === 'error' ? status.error : null,
  };
}
