import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/LoadState';
import { PageTitle } from '../components/PageTitle';
import { useT } from '../i18n/I18nProvider';
import { useCan } from '../session/SessionProvider';
import { NAV_ITEMS } from './navigation';

// Each screen is its own chunk, loaded when first opened: the first load carries only the frame and sign-in.
const LinksPage = lazy(() => import('../features/links/LinksPage'));
const NewLinkPage = lazy(() =>
  import('../features/links/LinkEditPage').then((m) => ({ default: m.NewLinkPage })),
);
const EditLinkPage = lazy(() =>
  import('../features/links/LinkEditPage').then((m) => ({ default: m.EditLinkPage })),
);
const StatsPage = lazy(() => import('../features/stats/StatsPage'));
const SpacesPage = lazy(() => import('../features/spaces/SpacesPage'));
const DomainsPage = lazy(() => import('../features/domains/DomainsPage'));
const PixelsPage = lazy(() => import('../features/pixels/PixelsPage'));
const TransferPage = lazy(() => import('../features/transfer/TransferPage'));
const KeysPage = lazy(() => import('../features/keys/KeysPage'));
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage'));
const DeliveriesPage = lazy(() => import('../features/webhooks/DeliveriesPage'));
const AccountPage = lazy(() => import('../features/account/AccountPage'));

/** A route whose `:id` is a positive whole number; anything else is not a page. */
function withId(Page: LazyExoticComponent<ComponentType<{ id: number }>>) {
  return function IdRoute({ params }: { params: { id?: string } }) {
    const id = Number(params.id);
    return Number.isInteger(id) && id > 0 ? <Page id={id} /> : <NotFound />;
  };
}

const EditLinkRoute = withId(EditLinkPage);
const StatsRoute = withId(StatsPage);
const DeliveriesRoute = withId(DeliveriesPage);

export function AppRoutes() {
  const can = useCan();
  const home = NAV_ITEMS.find((item) => can(item.scope))?.href ?? '/account';
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <Redirect to={home} replace />
        </Route>
        <Route path="/links" component={LinksPage} />
        <Route path="/links/new" component={NewLinkPage} />
        <Route path="/links/:id/edit" component={EditLinkRoute} />
        <Route path="/links/:id/stats" component={StatsRoute} />
        <Route path="/spaces" component={SpacesPage} />
        <Route path="/domains" component={DomainsPage} />
        <Route path="/pixels" component={PixelsPage} />
        <Route path="/transfer" component={TransferPage} />
        <Route path="/keys" component={KeysPage} />
        <Route path="/webhooks" component={WebhooksPage} />
        <Route path="/webhooks/:id/deliveries" component={DeliveriesRoute} />
        <Route path="/account" component={AccountPage} />
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}

function NotFound() {
  const t = useT();
  return (
    <section className="page">
      <PageTitle text={t.app.notFound} />
      <p>{t.app.notFoundText}</p>
    </section>
  );
}
