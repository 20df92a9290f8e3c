import { newGroup, newStudy, permissionFlags } from './factories';
import { apiStub } from './render';

/** A small api/v3 double: one account, three groups, a few studies. Records every call. */
export function demoApi(
  options: {
    inboxView?: string;
    studies?: number;
    /** Milliseconds to hold an answer, from its path and form body. */
    delay?: (path: string, body: URLSearchParams) => number;
  } = {},
) {
  const calls: { path: string; params: URLSearchParams }[] = [];
  const groups = [
    newGroup({ uuid: 'g-cloud', name: 'Emergency', type: 'CLOUD', namespace_id: 'ns-e' }),
    newGroup({ uuid: 'g-gate', name: 'PACS Intake', type: 'GATEKEEPER', namespace_id: 'ns-p' }),
    newGroup({
      uuid: 'g-lib',
      name: 'Teaching Files',
      type: 'LIBRARY',
      namespace_id: 'ns-t',
      permissions: permissionFlags(['study_view']),
    }),
  ];
  const studies = Array.from({ length: options.studies ?? 3 }, (_, i) =>
    newStudy({ patient_name: `PATIENT^NUMBER${i + 1}`, uuid: `s-${i + 1}` }),
  );
  const record = (path: string) => (body: URLSearchParams, url: URL) => {
    const params = new URLSearchParams([...url.searchParams, ...body]);
    calls.push({ path, params });
    return params;
  };
  const answer = apiStub({
    'session/user': (b, u) => {
      record('session/user')(b, u);
      return [
        200,
        {
          status: 'OK',
          uuid: 'u1',
          name: 'Clinician',
          email: 'c@d',
          account_id: 'acc',
          admin: 0,
          sysadmin: 0,
          ui_json: null,
        },
      ];
    },
    'account/list': (b, u) => {
      record('account/list')(b, u);
      return [
        200,
        {
          status: 'OK',
          accounts: [{ uuid: 'acc', name: 'Demo Hospital', namespace_id: 'ns-acc', vanity: null }],
        },
      ];
    },
    'account/get': (b, u) => {
      record('account/get')(b, u);
      return [
        200,
        {
          status: 'OK',
          uuid: 'acc',
          name: 'Demo Hospital',
          namespace_id: 'ns-acc',
          settings: { enable_inbox_view: options.inboxView ?? '1' },
          permissions: permissionFlags(),
          brand_settings: {},
        },
      ];
    },
    'group/list': (b, u) => {
      record('group/list')(b, u);
      return [200, { status: 'OK', groups }];
    },
    'session/permissions': (b, u) => {
      record('session/permissions')(b, u);
      return [200, { status: 'OK', ...permissionFlags() }];
    },
    'study/list': (b, u) => {
      const p = record('study/list')(b, u);
      const name = p.get('filter.patient_name.like');
      const rows = name ? studies.filter((s) => s.patient_name.includes(name.replaceAll('%', ''))) : studies;
      return [200, { status: 'OK', studies: rows, page: { number: 1, rows: 50, more: 0 } }];
    },
    'study/count': (b, u) => {
      record('study/count')(b, u);
      return [200, { status: 'OK', count: studies.length }];
    },
    'audit/object': () => [
      200,
      { status: 'OK', events: [{ action: 'CREATE', type: 'study', who: 'Admin' }] },
    ],
    'setting/get': () => [412, { status: 'ERROR', error_type: 'NOT_FOUND' }],
  });
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await answer(input, init);
    const path = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost')
      .pathname;
    const wait =
      options.delay?.(
        path.replace('/api/v3/', ''),
        new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
      ) ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return response;
  };
  return { fetch, calls, groups, studies };
}
