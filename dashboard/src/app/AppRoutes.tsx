import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/LoadState';
import { PageTitle } from '../components/PageTitle';
import { useT } from '../i18n/I18nProvider';
import { useCan, useSession } from '../session/SessionProvider';
import { NAV_ITEMS } from './navigation';

// The screens below the navigation's own, each its own chunk as theirs are (see NAV_ITEMS).
const NewLinkPage = lazy(() =>
  import('../features/links/LinkEditPage').then((m) => ({ default: m.NewLinkPage })),
);
const EditLinkPage = lazy(() =>
  import('../features/links/LinkEditPage').then((m) => ({ default: m.EditLinkPage })),
);
const DuplicateLinkPage = lazy(() =>
  import('../features/links/LinkEditPage').then((m) => ({ default: m.DuplicateLinkPage })),
);
const StatsPage = lazy(() => import('../features/stats/StatsPage'));
const DeliveriesPage = lazy(() => import('../features/webhooks/DeliveriesPage'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage'));

/** A route whose `:id` is a positive whole number; anything else is not a page. */
function withId(Page: LazyExoticComponent<ComponentType<{ id: number }>>) {
  return function IdRoute({ params }: { params: { id?: string } }) {
    const id = Number(params.id);
    return Number.isInteger(id) && id > 0 ? <Page id={id} /> : <NotFound />;
  };
}

const EditLinkRoute = withId(EditLinkPage);
const DuplicateLinkRoute = withId(DuplicateLinkPage);
const StatsRoute = withId(StatsPage);
const DeliveriesRoute = withId(DeliveriesPage);

export function AppRoutes() {
  const can = useCan();
  const { user } = useSession();
  // A person with no screen to read (a second factor still to add) starts at their profile.
  const home = NAV_ITEMS.find((item) => can(item.scope))?.href ?? (user ? '/profile' : '/account');
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <Redirect to={home} replace />
        </Route>
        {NAV_ITEMS.map((item) => (
          <Route key={item.href} path={item.href} component={item.page} />
        ))}
        <Route path="/links/new" component={NewLinkPage} />
        <Route path="/links/:id/edit" component={EditLinkRoute} />
        <Route path="/links/:id/duplicate" component={DuplicateLinkRoute} />
        <Route path="/links/:id/stats" component={StatsRoute} />
        <Route path="/webhooks/:id/deliveries" component={DeliveriesRoute} />
        <Route path="/profile" component={ProfilePage} />
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
